"""Domain managers: domain logic over the hub client, no Home Assistant imports."""
