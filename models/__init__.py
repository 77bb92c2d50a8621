"""fanscan.models."""
