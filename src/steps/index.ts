// steps/ — every step, registered once. Importing this module registers them all.
import './tabs.js';
import './navigation.js';
import './wait.js';
import './page-function.js';
import './viewport.js';
import './screenshot.js';
import './snapshot.js';
import './refs.js';
import './query.js';
import './interaction.js';
import './forms.js';
import './scroll.js';
import './frames.js';
import './keyboard.js';
import './drag.js';
import './profiles.js';
import './script.js';
import './pdf.js';
import './state.js';
import './observe.js';
import './form-check.js';
import './assert.js';

export { getStep, stepNames, allSteps, isReadOnlyStep } from './registry.js';
export type { StepDefinition, StepContext, CommandState, AttachedTab } from './registry.js';
export { ParamError } from './params.js';
