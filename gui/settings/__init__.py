"""The settings dialog and its General tab."""
