"""Playing whole games on the contract: the players, simulations, balance and head-to-head runs,
stored figures, the table view and its front ends (the terminal, the Play page's bundle)."""
