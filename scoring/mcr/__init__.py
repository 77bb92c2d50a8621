"""MCR (Chinese Official, 国标): the fan table, the detectors and the scorer; ``RULESET``."""

from fanscan.scoring.mcr.scorer import RULESET, MCRRuleSet

__all__ = ["RULESET", "MCRRuleSet"]
