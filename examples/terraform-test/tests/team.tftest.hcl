# `terraform test` runs these in order against the service the ORGADMIN_* variables name, and
# destroys what they created at the end.

variables {
  name          = "tftest-platform"
  display_name  = "Platform team"
  member_emails = ["alice@example.com", "bob@example.com"]
}

run "creates_the_team_with_its_members" {
  assert {
    condition     = orgadmin_organization.team.display_name == "Platform team"
    error_message = "The organization does not have the display name it was given."
  }

  assert {
    condition     = toset([for m in orgadmin_membership.member : m.user_id]) == toset([for u in data.orgadmin_user.member : u.id])
    error_message = "Not every listed email became a member."
  }

  assert {
    condition = alltrue([
      for email, id in output.membership_import_ids :
      provider::orgadmin::parse_import_id(id).user_id == data.orgadmin_user.member[email].id
    ])
    error_message = "The membership import ids do not name the members."
  }
}

run "adds_a_member_in_place" {
  variables {
    member_emails = ["alice@example.com", "bob@example.com", "carol@example.com"]
  }

  assert {
    condition     = length(orgadmin_membership.member) == 3
    error_message = "carol was not added."
  }

  assert {
    condition     = output.organization_id == run.creates_the_team_with_its_members.organization_id
    error_message = "Adding a member replaced the organization."
  }
}

run "refuses_a_name_with_spaces" {
  command = plan

  variables {
    name = "Platform Team"
  }

  expect_failures = [var.name]
}
