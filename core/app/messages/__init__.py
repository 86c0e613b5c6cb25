"""Sentences for the user by code, translated when someone reads them, and the counts a job keeps for them."""
