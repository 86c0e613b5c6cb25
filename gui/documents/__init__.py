"""The documents list: its table, filters, the live feed from the store, and following one document."""
