package shell_test

import "testing"

// TestRemoveSubcommand (red team round 65): a subcommand CLI's own rm removes its objects
// and runs no program, so `docker rm abc` no longer matches an rm rule; the suffixes after
// it, a command before the subcommand, an option or an expansion in the path, and a
// subcommand that runs commands still do.
func TestRemoveSubcommand(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		{"docker rm", `docker rm abc`, "none"},
		{"docker rm -f", `docker rm -f abc def`, "none"},
		{"docker container rm", `docker container rm abc`, "none"},
		{"docker image rm", `docker image rm img:1`, "none"},
		{"docker volume rm", `docker volume rm v`, "none"},
		{"docker compose rm", `docker compose rm -f`, "none"},
		{"podman pod rm", `podman pod rm p`, "none"},
		{"docker-compose rm", `docker-compose rm -f web`, "none"},
		{"npm rm", `npm rm lodash`, "none"},
		{"pnpm rm", `pnpm rm lodash`, "none"},
		{"bun rm", `bun rm lodash`, "none"},
		{"brew rm", `brew rm wget`, "none"},
		{"cargo rm", `cargo rm serde`, "none"},
		{"rclone rm", `rclone rm remote:x`, "none"},
		{"aws s3 rm", `aws s3 rm s3://b/x --recursive`, "none"},
		{"gsutil rm", `gsutil rm -r gs://b/x`, "none"},
		{"gcloud storage rm", `gcloud storage rm gs://b/x`, "none"},
		{"hg rm", `hg rm x`, "none"},
		{"svn rm", `svn rm x`, "none"},
		{"a path to docker", `/usr/bin/docker rm abc`, "none"},
		{"apply_patch", "apply_patch '*** Begin Patch\n*** Add File: hello.txt\n+x\n*** End Patch\n'", "none"},
		// Still commands.
		{"rm after docker rm", `docker rm rm -rf x`, "rm"},
		{"docker exec rm", `docker exec c rm -rf x`, "rm"},
		{"docker run rm", `docker run --rm -v /:/h img rm -rf /h/x`, "rm"},
		{"a global option first", `docker --context rm run img rm -rf /h/x`, "rm"},
		{"a global option before rm", `docker -H tcp://h rm -rf abc`, "rm"},
		{"rm under another verb", `docker container exec c rm -rf x`, "rm"},
		{"npm exec rm", `npm exec -- rm -rf x`, "rm"},
		{"aws another service", `aws ec2 rm -rf x`, "rm"},
		{"a program not in the list", `frob rm -rf x`, "rm"},
		{"apply_patch of a substitution", `apply_patch "$(rm -rf x)"`, "rm"},
		{"the next command", `docker rm abc; rm -rf x`, "rm"},
	})
}
