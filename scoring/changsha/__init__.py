"""Changsha (长沙) rules from seed 004's 大胡 / 小胡 part: hands, opening wins, payments;
``RULESET``.
"""

from fanscan.scoring.changsha.scorer import RULESET, ChangshaRuleSet

__all__ = ["RULESET", "ChangshaRuleSet"]
