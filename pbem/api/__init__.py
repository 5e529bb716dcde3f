"""The REST API (DRF): one `<Entity><Action>Api` class per operation, nested serializers."""
