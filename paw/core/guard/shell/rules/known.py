"""Programs whose effects the guard knows to stay in the project (or to only read and print).

A program here needs no rule of its own: it reads, prints, computes, or builds and tests the
project in its own folder. Programs with rules (``rm``, ``git``, ``curl`` …) are known through
their rules. Any other program is ``confirm`` ("paw does not know what `X` does"): add a
program here only when every subcommand and option it has keeps its effects in the project, or
when the options that do not are known to a rule (``tools.py``) or to the posture checks
(destructive verbs, home reads, listeners, settings, signals, private addresses).
Users add their own through ``[guard] known_programs`` in the configuration.
"""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Shell builtins and keywords-as-commands that only read, print or steer the shell itself.
BUILTINS = _words(
    """
    : cd pwd echo printf true false break continue history test [ [[ read exit return shift
    local declare typeset readonly unset set wait jobs fg bg disown times trap umask ulimit
    getopts hash help pushd popd dirs let caller compgen complete shopt suspend logout
    mapfile readarray
    """
)

# Read, inspect, print, compute.
READERS = _words(
    """
    ls ll dir vdir cat tac nl head tail less more most bat batcat grep egrep fgrep zgrep rg ag
    ack ugrep wc du df file stat tree sort uniq cut paste join comm fold fmt column expand
    unexpand tr rev shuf diff diff3 cmp colordiff delta difft jq yq gojq jless fx xmllint
    basename dirname realpath readlink pathchk date cal sleep seq yes expr bc dc factor numfmt
    md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum sum base32 base64
    basenc xxd hexdump od strings nm objdump readelf ldd size uname hostname whoami id groups
    users who w uptime arch nproc lscpu lsblk free vmstat iostat locale tty ps pgrep pstree
    top htop btop lsof ss netstat ping ping6 traceroute tracepath dig nslookup
    host whois printenv tput clear reset man info apropos whatis tldr cheat which whereis
    type command fc look cloc tokei scc sloccount hyperfine
    tee iconv dos2unix unix2dos identify ffprobe
    pdfinfo pdftotext fzf glow mdcat pygmentize highlight journalctl dmesg ssh-keyscan
    pbcopy pbpaste xclip xsel wl-copy wl-paste mkdir mktemp gzip gunzip zcat bzip2 bunzip2
    xz unxz zstd unzstd lz4 7z dpkg-query open xdg-open split csplit envsubst getent lsb_release
    sw_vers
    """
)

# Build, test, lint, format, package and run the project (their writing options are in
# tools.py or lead into the project; their publishing verbs are in publish rules).
PROJECT_TOOLS = _words(
    """
    make gmake bmake cmake ctest cpack ninja meson bazel bazelisk buck buck2 pants scons waf
    gcc g++ cc c++ clang clang++ clang-format clang-tidy cpp ld lld gold as ar ranlib strip
    rustc rustfmt rustup cargo-clippy clippy-driver go gofmt goimports gopls golangci-lint
    staticcheck govulncheck dlv javac java jar kotlinc kotlin scalac scala sbt mill mvn mvnw
    gradle gradlew ant dotnet csc fsc swift swiftc swiftformat swiftlint xcodebuild xcrun
    ghc cabal stack ormolu hlint ocaml dune opam elixir mix iex erl rebar3 gleam zig nim
    crystal dart flutter deno bun tsc tsx ts-node esbuild swc vite webpack rollup parcel
    turbo nx lerna eslint prettier biome oxlint stylelint jest vitest mocha ava tap karma
    playwright cypress storybook next nuxt astro svelte-kit remix gatsby expo react-native
    pytest py.test tox nox hatch pdm poetry pipenv pipx pyenv virtualenv conda-lock ruff
    black isort flake8 pylint mypy pyright pytype bandit vulture coverage autopep8 yapf
    pydocstyle pycodestyle pyflakes codespell pre-commit sphinx-build sphinx-autobuild mkdocs
    jupyter-nbconvert nbqa maturin cibuildwheel twine alembic django-admin flask uvicorn
    gunicorn hypercorn daphne celery manage.py bundle bundler rake rspec rubocop ruby-lsp
    standardrb erb rails-assets composer phpunit phpstan psalm php-cs-fixer artisan perl
    prove cpanm lua luarocks busted R Rscript julia shellcheck shfmt bats hadolint
    actionlint yamllint markdownlint markdownlint-cli2 mdl vale alex write-good typos
    editorconfig-checker taplo hugo zola jekyll mdbook eleventy hexo pelican docusaurus
    asciidoctor pandoc latexmk pdflatex xelatex lualatex tectonic plantuml dot mmdc protoc
    buf flatc thrift sqlc atlas-lint ansible-lint tflint tfsec checkov kube-linter kubeconform
    kubeval conftest helm-docs terraform-docs just task mage invoke doit direnv asdf mise
    nvm fnm volta rbenv jenv sdk ghcup elm elm-format purs spago rescript gleam ocamlformat
    buildifier gazelle nixfmt alejandra statix deadnix tokei license-checker depcheck knip
    madge size-limit bundlesize lighthouse pa11y axe sass lessc postcss tailwindcss patch
    rails nix nix-build nix-shell jupyter jupyter-lab ipython pip-compile pip-sync pip-audit
    ng vue-cli-service react-scripts svelte-check vue-tsc ember
    semgrep trivy grype syft osv-scanner gitleaks detect-secrets safety ncu knip license-check
    """
)

# Database clients: known, and what they are told to run is read (destructive SQL, flushes).
CLIENTS = _words(
    """
    psql mysql mariadb sqlite3 sqlite mongosh mongo redis-cli valkey-cli cqlsh
    clickhouse-client cockroach duckdb litecli pgcli mycli usql influx etcdctl
    """
)

# Programs known for their reading verbs only (`gcloud config list`, `brew info`): any other
# verb acts on the machine or a remote account, and is confirm.
VERB_READERS = _words(
    """
    gcloud gsutil az doctl flyctl fly heroku vercel netlify firebase supabase wrangler brew
    apt apt-get apt-cache dpkg rpm dnf yum pacman zypper apk conda mamba micromamba port
    snap flatpak rclone s3cmd stripe ngrok cloudflared
    """
)
READ_VERBS = _words(
    """
    list ls show describe get info status version whoami search view cat logs log read
    print-access-token account config-helper --version --help -h -V help policy query
    """
)

PRINTERS = BUILTINS | READERS  # their operands are data or files read: no verbs to read there
KNOWN = BUILTINS | READERS | PROJECT_TOOLS | CLIENTS
