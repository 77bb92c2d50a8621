"""fanscan.scoring."""
