# Component B, package `simple`: one permitted name and a constant environment.
package simple

default allow := false

# The one permitted name is "alice".
allow if input.name == "alice"

env := "dev"
