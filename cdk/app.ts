import { outrankApp } from './outrank-app';

// Run by the CDK CLI (cdk.json), which passes context and the output folder through the environment.
outrankApp().app.synth();
