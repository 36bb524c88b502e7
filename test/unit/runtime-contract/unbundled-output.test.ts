import { refuseUnbundledIntoDeployableOutput } from '../../../lib/unbundled-output';

describe('an unbundled synth never writes over the deployable assembly', () => {
  it('refuses skipBundling into cdk.out, naming the command that writes elsewhere', () => {
    expect(() => refuseUnbundledIntoDeployableOutput(true, '/home/me/project/cdk.out')).toThrow(/-o cdk\.out\.unbundled` \(npm run synth:unbundled\)/);
  });

  it('lets it write to its own folder, lets a bundled synth write to cdk.out, and leaves in-process synths alone', () => {
    expect(() => refuseUnbundledIntoDeployableOutput(true, '/home/me/project/cdk.out.unbundled')).not.toThrow();
    expect(() => refuseUnbundledIntoDeployableOutput(false, '/home/me/project/cdk.out')).not.toThrow();
    expect(() => refuseUnbundledIntoDeployableOutput(true, undefined)).not.toThrow();
  });
});
