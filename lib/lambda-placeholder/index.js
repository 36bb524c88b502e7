// Stand-in code for synthesis without bundling (`-c skipBundling=true`, the jest CDK tests, or
// stacks the CLI did not select for bundling). It is never meant to run: deploying it would
// replace the real handler, so it fails loudly instead of answering anything.
exports.handler = async () => {
  throw new Error('Placeholder code: this function was synthesized with bundling skipped and must not be deployed.');
};
