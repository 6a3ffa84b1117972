"""The HTTP layer: REST routes and GraphQL fields generated from the game registry, errors and limits."""
