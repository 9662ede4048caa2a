"""Agents' structured channels: the side effects (servers, hook files) behind each channel."""
