# Component B, package `limits`: spending limits by role, from data.json.
package limits

default allow := false

# Allowed when the user is listed in data.user_roles and active.
allow if data.user_roles[input.name].active == true

# Undefined (left out of the result) for a user missing from data.user_roles.
role := data.user_roles[input.name].role

default limit := 0.00

limit := data.limits_by_roles[role] if allow
