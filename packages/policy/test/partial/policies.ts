/** Policies of our own for partial evaluation tests: RBAC, ABAC, data filtering by owner. */

export const RBAC = `package rbac

default allow := false

allow if {
	some role in data.user_roles[input.user]
	some grant in data.role_grants[role]
	grant.action == input.action
	grant.type == input.type
}

allow if input.user == "root"

permitted if {
	some role in data.user_roles[input.user]
	some grant in data.role_grants[role]
	grant.action == input.action
}

permitted if input.user == "root"
`;

export const RBAC_DATA = {
  user_roles: { alice: ["admin"], bob: ["dev", "viewer"], carol: ["viewer"], dave: [] },
  role_grants: {
    admin: [
      { action: "read", type: "doc" },
      { action: "write", type: "doc" },
      { action: "delete", type: "doc" },
      { action: "read", type: "report" },
    ],
    dev: [
      { action: "write", type: "doc" },
      { action: "read", type: "doc" },
    ],
    viewer: [{ action: "read", type: "report" }],
  },
};

export const ABAC = `package abac

allow if {
	input.subject.clearance >= input.resource.level
	input.resource.department in input.subject.departments
	not input.resource.archived
}

allow if {
	some tag in input.resource.tags
	tag == "public"
	input.action == "read"
}

high_risk contains name if {
	some name, attr in input.resource.attrs
	attr.risk > 5
}

deny if {
	count(high_risk) > 0
	input.action == "delete"
}

deny if {
	input.subject.clearance < 2
	not data.abac_settings.lenient
}

limit(level) := level * 10

within_budget if input.resource.cost <= limit(input.subject.clearance)
`;

export const ABAC_DATA = { abac_settings: { lenient: false } };

export const FILTERS = `package filters

allow if input.resource.owner == input.user

allow if input.user in data.admins

allow if {
	input.resource.public == true
	input.action == "read"
}

allow if {
	some member in data.teams[input.resource.team]
	member == input.user
}
`;

export const FILTERS_DATA = {
  admins: ["root"],
  teams: { red: ["alice", "bob"], blue: ["carol"] },
};
