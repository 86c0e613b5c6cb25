"""The Model page, the catalog's cards, model servers, downloads, and the first run's welcome."""
