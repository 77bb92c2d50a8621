"""《麻将竞赛规则》国标加强版 ("guobiao-plus", seed 001): its formula, points and payments;
``RULESET``.
"""

from fanscan.scoring.guobiao_plus.scorer import RULESET, GuobiaoPlusRuleSet

__all__ = ["RULESET", "GuobiaoPlusRuleSet"]
