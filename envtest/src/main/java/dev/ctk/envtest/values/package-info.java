/**
 * What the public envtest API and its internal packages share: {@link dev.ctk.envtest.values.EnvtestException}, the
 * one exception every real-server failure is reported with. Internal packages import this package, never
 * {@code dev.ctk.envtest} itself.
 *
 * <p>Limits: nothing else lives here; a type goes here only when both sides need it.
 */
package dev.ctk.envtest.values;
