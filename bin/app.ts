#!/usr/bin/env node
/** The CDK app: validates the deployment config, builds the stack, runs cdk-nag's AwsSolutions pack. */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildApp } from '../lib/app.js';

const app = new App();
buildApp(app);
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
