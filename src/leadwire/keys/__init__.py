"""API keys an account manages itself: list its keys, create one within the creating key's scopes (its
secret shown once), revoke one."""
