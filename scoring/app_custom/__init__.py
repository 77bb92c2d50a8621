"""The competitive-mahjong app's custom rules ("app-custom", seed 003): MCR fans, the app's extra
fans, dealer doubling and the wild tile (财神); ``RULESET``.
"""

from fanscan.scoring.app_custom.scorer import RULESET, AppCustomRuleSet

__all__ = ["RULESET", "AppCustomRuleSet"]
