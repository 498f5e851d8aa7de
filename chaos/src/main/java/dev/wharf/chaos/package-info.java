/**
 * The chaos checker: {@link dev.wharf.chaos.ChaosMain} runs a cluster of real Wharf processes under load and
 * faults and judges the outcome; {@link dev.wharf.chaos.ChaosRun} is one run from start to verdict.
 */
package dev.wharf.chaos;
