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

/** Other features partial evaluation must keep right: else, objects, comprehensions, every. */
export const FEATURES = `package features

level := "high" if input.score > 7
else := "mid" if input.score > 3
else := "low"

labels[name] := upper(name) if some name in input.tags

tier(n) := "gold" if n >= 100

tier(n) := "silver" if {
	n >= 50
	n < 100
}

default quota := 0

quota := q if {
	q := input.score * 10
	q < 80
}

all_small if every t in input.tags { count(t) < 6 }

tag_count := count([t | some t in input.tags; t != "draft"])

blocked if input.user in data.blocked

ok if {
	not blocked
	level != "low"
	labels.public == "PUBLIC"
}

ok if {
	tier(input.spend) == "gold"
	all_small
}

ok if {
	tag_count >= 2
	quota > 20
	input.owner == input.user
}
`;

export const FEATURES_DATA = { blocked: ["mallory"] };

/** Filtering rows of a table that is itself unknown (`data.posts`), as OPA's SQL examples do. */
export const POSTS = `package blog

allow if {
	input.method == "GET"
	input.path == ["posts"]
	allowed[_]
}

allowed contains post if {
	some post in data.posts
	post.author == input.user
}

allowed contains post if {
	some post in data.posts
	post.public
	post.clearance <= input.clearance
}
`;

export const POSTS_DATA = {
  posts: [
    { author: "alice", public: false, clearance: 1 },
    { author: "bob", public: true, clearance: 3 },
    { author: "carol", public: true, clearance: 1 },
  ],
};
