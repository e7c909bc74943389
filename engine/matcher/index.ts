// `@gatehouse/engine/matcher`: what a browser needs to read conditioned rules back, without the engine.
export { conditionsMatcher, createConditionedAbility } from './conditions-matcher.js';
