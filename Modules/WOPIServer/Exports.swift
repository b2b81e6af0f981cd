// Users, password hashing, the audit trail and the OAuth verifier live in WOPIAccounts (the authorization server
// uses them without the host); a host that imports WOPIServer sees them without a second import.
@_exported public import WOPIAccounts
