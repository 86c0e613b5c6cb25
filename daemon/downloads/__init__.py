"""Model downloads from a Hugging Face hub (or a mirror): resumable, retried, verified before they land."""
