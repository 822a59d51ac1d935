package dev.ctk.josdk;

import io.javaoperatorsdk.operator.api.reconciler.Context;

/**
 * What a test reconciler does for one call.
 *
 * @param <T> {@code UpdateControl} for a reconcile, {@code DeleteControl} for a cleanup
 */
@FunctionalInterface
interface Script<T> {

  T run(Widget widget, Context<Widget> context) throws Exception;
}
