"""明星三缺一 ("mingxing", seed 000): MCR plus the game's extras; ``RULESET``."""

from fanscan.scoring.mingxing.scorer import RULESET, MingxingRuleSet

__all__ = ["RULESET", "MingxingRuleSet"]
