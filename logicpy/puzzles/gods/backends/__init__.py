"""Other engines for the gods puzzle: SAT trees with z3, and the Prolog vocabulary of the original solver."""
