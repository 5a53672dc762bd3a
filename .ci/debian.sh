# Sourced by the CI scripts. debian_install_missing COMMAND:PACKAGE... installs with apt-get
# the package of each command that is not on PATH (nothing, and no apt-get update, when all are).
debian_install_missing() {
  local missing=() pair
  for pair in "$@"; do
    command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
  done
  if ((${#missing[@]})); then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  fi
}
