package dev.ctk.fake.internal.cel;

import dev.cel.runtime.CelRuntime;

/**
 * One rule of a schema node after compilation.
 *
 * @param rule the rule as written
 * @param program the rule's program ({@code null} for an empty rule or one that did not compile)
 * @param usesOldSelf whether the rule refers to {@code oldSelf} (a transition rule)
 * @param message the program of {@code messageExpression}, or {@code null}
 * @param fieldPath the normalized {@code fieldPath} ({@code ""} when absent or invalid)
 * @param error why the rule did not compile (kube's detail, e.g. {@code compilation failed: ERROR: ...}), or
 *     {@code null}
 * @param messageError why {@code messageExpression} did not compile, or {@code null}
 */
record CompiledRule(ValidationRule rule, CelRuntime.Program program, boolean usesOldSelf,
    CelRuntime.Program message, String fieldPath, String error, String messageError) {
}
