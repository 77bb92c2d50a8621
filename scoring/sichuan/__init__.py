"""Sichuan (四川 / 成都, 血战) rules from seed 004: the 番 table and the scorer; ``RULESET``."""

from fanscan.scoring.sichuan.scorer import RULESET, SichuanRuleSet

__all__ = ["RULESET", "SichuanRuleSet"]
