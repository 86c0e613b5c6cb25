"""How long things take: phase plans, a guide's estimate from tokens and speeds, and the speeds this computer
measured."""
