"""The models a user can choose: the catalog, downloads, what fits this computer, model servers and their API keys."""
