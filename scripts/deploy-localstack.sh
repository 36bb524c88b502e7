#!/bin/sh
# `npm run deploy:localstack`: the whole CDK app deployed to a running LocalStack with cdklocal
# (docs/TESTING.md "LocalStack"). Needs Docker and LocalStack; cannot run without them.
# The stack outputs (the surfaces' API URLs, table and queue names) go to .localstack/outputs.json,
# which `npm run smoke:localstack` reads.
set -eu
export CDK_DISABLE_CLI_TELEMETRY=1
export AWS_ENDPOINT_URL="${AWS_ENDPOINT_URL:-http://localhost.localstack.cloud:4566}"
# LocalStack's fixed test account; never real credentials.
export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test
export AWS_REGION="${AWS_REGION:-us-east-1}" AWS_DEFAULT_REGION="${AWS_REGION:-us-east-1}"
# cdklocal drives the aws-cdk it finds on NODE_PATH: this project's.
export NODE_PATH="$PWD/node_modules${NODE_PATH:+:$NODE_PATH}"
# The Lambdas (in LocalStack's containers) call the Cloud API sandbox on the host (`SANDBOX_HOST=0.0.0.0 npm run sandbox`).
GRAPH_API_BASE_URL="${GRAPH_API_BASE_URL:-http://host.docker.internal:4010}"
mkdir -p .localstack
npx --yes aws-cdk-local@3.0.4 bootstrap
npx --yes aws-cdk-local@3.0.4 deploy --all --require-approval never \
  --outputs-file .localstack/outputs.json \
  -c skipFirewall=true -c graphApiBaseUrl="$GRAPH_API_BASE_URL" "$@"
echo
echo "Deployed. Outputs: .localstack/outputs.json. Provision a tenant (docs/TESTING.md \"LocalStack\"), then:"
echo "  npm run smoke:localstack -- --demo-file <your credentials file>"
