# fish completion for eai. Generated from the CLI by scripts/gen_completions.py; do not edit.
complete -c eai -f
complete -c eai -n '__fish_use_subcommand' -a approvals -d 'List, approve and reject approval requests.'
complete -c eai -n '__fish_use_subcommand' -a auth -d 'Log in to a gateway, show and remove stored credentials.'
complete -c eai -n '__fish_use_subcommand' -a completion -d 'Print a shell completion script for bash, zsh or fish.'
complete -c eai -n '__fish_use_subcommand' -a dev -d 'Start a local gateway and a tool host for the tools in PATH, register and approve them, and write a \'dev\' profile; stays in the foreground until Ctrl-C stops both.'
complete -c eai -n '__fish_use_subcommand' -a gateway -d 'Run the local Tool Gateway.'
complete -c eai -n '__fish_use_subcommand' -a schema -d 'Print the Tool Manifest JSON Schema (Draft 2020-12) on standard output.'
complete -c eai -n '__fish_use_subcommand' -a tools -d 'Scan, validate, register, invoke and inspect tools.'
complete -c eai -n '__fish_use_subcommand' -l version
complete -c eai -n '__fish_use_subcommand' -l debug
complete -c eai -n '__fish_use_subcommand' -l no-color
complete -c eai -n '__fish_use_subcommand' -s h
complete -c eai -n '__fish_use_subcommand' -l help
complete -c eai -n '__fish_seen_subcommand_from approvals; and not __fish_seen_subcommand_from approve get list reject' -a approve -d 'Approve a pending request (four eyes: not your own).'
complete -c eai -n '__fish_seen_subcommand_from approvals; and not __fish_seen_subcommand_from approve get list reject' -a get -d 'Show one approval: kind, tool, who asked, arguments (redacted), status, decision.'
complete -c eai -n '__fish_seen_subcommand_from approvals; and not __fish_seen_subcommand_from approve get list reject' -a list -d 'List approvals, newest first (pending ones by default).'
complete -c eai -n '__fish_seen_subcommand_from approvals; and not __fish_seen_subcommand_from approve get list reject' -a reject -d 'Reject a pending request.'
complete -c eai -n '__fish_seen_subcommand_from approvals; and not __fish_seen_subcommand_from approve get list reject' -s h
complete -c eai -n '__fish_seen_subcommand_from approvals; and not __fish_seen_subcommand_from approve get list reject' -l help
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from approve' -s h
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from approve' -l help
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from approve' -l comment -r -F
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from approve' -l profile -r -F
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from approve' -s p -r -F
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from approve' -l output -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from approve' -s o -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from approve' -F
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from get' -s h
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from get' -l help
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from get' -l profile -r -F
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from get' -s p -r -F
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from get' -l output -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from get' -s o -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from get' -F
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from list' -s h
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from list' -l help
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from list' -l status -x -a 'pending approved rejected expired consumed all'
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from list' -l tool -r -F
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from list' -l limit -r -F
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from list' -l profile -r -F
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from list' -s p -r -F
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from list' -l output -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from list' -s o -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from reject' -s h
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from reject' -l help
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from reject' -l comment -r -F
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from reject' -l profile -r -F
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from reject' -s p -r -F
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from reject' -l output -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from reject' -s o -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from approvals; and __fish_seen_subcommand_from reject' -F
complete -c eai -n '__fish_seen_subcommand_from auth; and not __fish_seen_subcommand_from login logout status' -a login -d 'Check a token against the gateway and store it in the OS keyring for a profile.'
complete -c eai -n '__fish_seen_subcommand_from auth; and not __fish_seen_subcommand_from login logout status' -a logout -d 'Remove the stored token of a profile (the profile\'s URL is kept).'
complete -c eai -n '__fish_seen_subcommand_from auth; and not __fish_seen_subcommand_from login logout status' -a status -d 'Show the active profile, gateway URL, where the token comes from and its last 4 characters.'
complete -c eai -n '__fish_seen_subcommand_from auth; and not __fish_seen_subcommand_from login logout status' -s h
complete -c eai -n '__fish_seen_subcommand_from auth; and not __fish_seen_subcommand_from login logout status' -l help
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from login' -l token-stdin
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from login' -l insecure-storage
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from login' -s h
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from login' -l help
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from login' -l profile -r -F
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from login' -s p -r -F
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from login' -l base-url -r -F
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from login' -l output -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from login' -s o -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from logout' -s h
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from logout' -l help
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from logout' -l profile -r -F
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from logout' -s p -r -F
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from logout' -l output -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from logout' -s o -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from status' -s h
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from status' -l help
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from status' -l profile -r -F
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from status' -s p -r -F
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from status' -l output -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from status' -s o -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from completion' -s h
complete -c eai -n '__fish_seen_subcommand_from completion' -l help
complete -c eai -n '__fish_seen_subcommand_from completion' -x -a 'bash zsh fish'
complete -c eai -n '__fish_seen_subcommand_from dev' -l insecure-storage
complete -c eai -n '__fish_seen_subcommand_from dev' -s h
complete -c eai -n '__fish_seen_subcommand_from dev' -l help
complete -c eai -n '__fish_seen_subcommand_from dev' -l port -r -F
complete -c eai -n '__fish_seen_subcommand_from dev' -l tools-port -r -F
complete -c eai -n '__fish_seen_subcommand_from dev' -l data-dir -r -F
complete -c eai -n '__fish_seen_subcommand_from dev' -l profile -r -F
complete -c eai -n '__fish_seen_subcommand_from dev' -s p -r -F
complete -c eai -n '__fish_seen_subcommand_from dev' -F
complete -c eai -n '__fish_seen_subcommand_from gateway; and not __fish_seen_subcommand_from hash-token serve' -a hash-token -d 'Read a token on stdin and print its SHA-256, the `token_sha256` of a principal in gateway.yaml.'
complete -c eai -n '__fish_seen_subcommand_from gateway; and not __fish_seen_subcommand_from hash-token serve' -a serve -d 'Run the local Tool Gateway in the foreground until Ctrl-C or SIGTERM.'
complete -c eai -n '__fish_seen_subcommand_from gateway; and not __fish_seen_subcommand_from hash-token serve' -s h
complete -c eai -n '__fish_seen_subcommand_from gateway; and not __fish_seen_subcommand_from hash-token serve' -l help
complete -c eai -n '__fish_seen_subcommand_from gateway; and __fish_seen_subcommand_from hash-token' -s h
complete -c eai -n '__fish_seen_subcommand_from gateway; and __fish_seen_subcommand_from hash-token' -l help
complete -c eai -n '__fish_seen_subcommand_from gateway; and __fish_seen_subcommand_from serve' -l allow-remote
complete -c eai -n '__fish_seen_subcommand_from gateway; and __fish_seen_subcommand_from serve' -s h
complete -c eai -n '__fish_seen_subcommand_from gateway; and __fish_seen_subcommand_from serve' -l help
complete -c eai -n '__fish_seen_subcommand_from gateway; and __fish_seen_subcommand_from serve' -l host -r -F
complete -c eai -n '__fish_seen_subcommand_from gateway; and __fish_seen_subcommand_from serve' -l port -r -F
complete -c eai -n '__fish_seen_subcommand_from gateway; and __fish_seen_subcommand_from serve' -l data-dir -r -F
complete -c eai -n '__fish_seen_subcommand_from gateway; and __fish_seen_subcommand_from serve' -l config -r -F
complete -c eai -n '__fish_seen_subcommand_from schema' -s h
complete -c eai -n '__fish_seen_subcommand_from schema' -l help
complete -c eai -n '__fish_seen_subcommand_from tools; and not __fish_seen_subcommand_from apply delete export get invocations invoke list register scan serve update validate' -a apply -d 'Alias of \'register\'.'
complete -c eai -n '__fish_seen_subcommand_from tools; and not __fish_seen_subcommand_from apply delete export get invocations invoke list register scan serve update validate' -a delete -d 'Remove a tool from the registry (asks first on a terminal).'
complete -c eai -n '__fish_seen_subcommand_from tools; and not __fish_seen_subcommand_from apply delete export get invocations invoke list register scan serve update validate' -a export -d 'Print the tools of manifests or Python code as tool entries for a model API or MCP.'
complete -c eai -n '__fish_seen_subcommand_from tools; and not __fish_seen_subcommand_from apply delete export get invocations invoke list register scan serve update validate' -a get -d 'Show one tool: manifest, risk level, owner, status.'
complete -c eai -n '__fish_seen_subcommand_from tools; and not __fish_seen_subcommand_from apply delete export get invocations invoke list register scan serve update validate' -a invocations -d 'Show invocations: time, tool, actor, status, decision, duration, cost, DLP detections, run id.'
complete -c eai -n '__fish_seen_subcommand_from tools; and not __fish_seen_subcommand_from apply delete export get invocations invoke list register scan serve update validate' -a invoke -d 'Invoke a tool through the gateway; print status, result, duration, cost and decision id.'
complete -c eai -n '__fish_seen_subcommand_from tools; and not __fish_seen_subcommand_from apply delete export get invocations invoke list register scan serve update validate' -a list -d 'List (discover) the tenant\'s tools in name order, following every page.'
complete -c eai -n '__fish_seen_subcommand_from tools; and not __fish_seen_subcommand_from apply delete export get invocations invoke list register scan serve update validate' -a register -d 'Register (apply) tools: report created, updated or unchanged for each.'
complete -c eai -n '__fish_seen_subcommand_from tools; and not __fish_seen_subcommand_from apply delete export get invocations invoke list register scan serve update validate' -a scan -d 'Print the Tool Manifest of every tool defined in Python code.'
complete -c eai -n '__fish_seen_subcommand_from tools; and not __fish_seen_subcommand_from apply delete export get invocations invoke list register scan serve update validate' -a serve -d 'Serve the tools found in PATH (files, directories or module names) at POST /tools/<name>.'
complete -c eai -n '__fish_seen_subcommand_from tools; and not __fish_seen_subcommand_from apply delete export get invocations invoke list register scan serve update validate' -a update -d 'Change a tool\'s owner, description or status; a promotion to approved prints its approval id.'
complete -c eai -n '__fish_seen_subcommand_from tools; and not __fish_seen_subcommand_from apply delete export get invocations invoke list register scan serve update validate' -a validate -d 'Check Tool Manifest files (YAML or JSON) against the manifest JSON Schema and the rules.'
complete -c eai -n '__fish_seen_subcommand_from tools; and not __fish_seen_subcommand_from apply delete export get invocations invoke list register scan serve update validate' -s h
complete -c eai -n '__fish_seen_subcommand_from tools; and not __fish_seen_subcommand_from apply delete export get invocations invoke list register scan serve update validate' -l help
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from apply' -l dry-run
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from apply' -l diff
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from apply' -l exit-code
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from apply' -s h
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from apply' -l help
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from apply' -l profile -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from apply' -s p -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from apply' -l output -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from apply' -s o -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from apply' -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from delete' -l yes
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from delete' -s y
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from delete' -s h
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from delete' -l help
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from delete' -l profile -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from delete' -s p -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from delete' -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from export' -l strict
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from export' -l static
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from export' -s h
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from export' -l help
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from export' -l to -x -a 'openai anthropic mcp'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from export' -l format -x -a 'json yaml'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from export' -s f -x -a 'json yaml'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from export' -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from get' -s h
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from get' -l help
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from get' -l profile -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from get' -s p -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from get' -l output -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from get' -s o -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from get' -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invocations' -l all
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invocations' -l follow
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invocations' -s f
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invocations' -s h
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invocations' -l help
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invocations' -l tool -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invocations' -l run-id -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invocations' -l limit -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invocations' -l profile -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invocations' -s p -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invocations' -l output -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invocations' -s o -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invoke' -l wait
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invoke' -s h
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invoke' -l help
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invoke' -l args-json -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invoke' -l args-file -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invoke' -l run-id -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invoke' -l idempotency-key -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invoke' -l approval-id -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invoke' -l profile -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invoke' -s p -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invoke' -l output -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invoke' -s o -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from invoke' -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from list' -s h
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from list' -l help
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from list' -l status -x -a 'draft approved restricted deprecated blocked'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from list' -l limit -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from list' -l profile -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from list' -s p -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from list' -l output -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from list' -s o -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from register' -l dry-run
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from register' -l diff
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from register' -l exit-code
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from register' -s h
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from register' -l help
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from register' -l profile -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from register' -s p -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from register' -l output -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from register' -s o -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from register' -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from scan' -l check
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from scan' -l static
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from scan' -l strict
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from scan' -s h
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from scan' -l help
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from scan' -l format -x -a 'yaml json'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from scan' -s f -x -a 'yaml json'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from scan' -l out -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from scan' -l endpoint-base-url -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from scan' -l owner -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from scan' -l version -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from scan' -l label -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from scan' -l timeout -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from scan' -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from serve' -l allow-remote
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from serve' -s h
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from serve' -l help
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from serve' -l host -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from serve' -l port -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from serve' -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from update' -s h
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from update' -l help
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from update' -l owner -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from update' -l description -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from update' -l status -x -a 'draft approved restricted deprecated blocked'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from update' -l profile -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from update' -s p -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from update' -l output -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from update' -s o -x -a 'table json yaml'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from update' -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from validate' -l strict
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from validate' -l list-rules
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from validate' -l remote
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from validate' -s h
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from validate' -l help
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from validate' -l format -x -a 'text json github junit sarif'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from validate' -s f -x -a 'text json github junit sarif'
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from validate' -l disable -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from validate' -l enable -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from validate' -l max-bytes -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from validate' -l max-depth -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from validate' -l contract -r -F
complete -c eai -n '__fish_seen_subcommand_from tools; and __fish_seen_subcommand_from validate' -F
