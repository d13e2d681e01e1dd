# Component B, package `permissions`: everyone may read; alice may also execute, and write
# when she comes with the admin role.
package permissions

default allow := false

allow if input.name == "alice"

perms contains "read"

perms contains "execute" if input.name == "alice"

perms contains "write" if {
	input.name == "alice"
	input.role == "admin"
}
