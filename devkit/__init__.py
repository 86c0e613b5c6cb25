"""Development tools that never ship: tiny deterministic GGUF models, recording and hanging generators, a loopback model
hub, a memory probe, the translation builder."""
