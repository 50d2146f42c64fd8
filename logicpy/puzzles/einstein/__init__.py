"""Einstein (zebra) logic-grid puzzles in einstein-solver's game format."""
