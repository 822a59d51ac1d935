package dev.ctk.controller;

/**
 * Observes a controller's reconciles. Called on the worker thread, around the reconciler; keep it
 * short. An exception thrown by a listener is logged and otherwise ignored.
 *
 * <pre>{@code
 * Controller.builder("web")
 *     .addReconcileListener(new ReconcileListener() {
 *       public void onReconcileEnd(ReconcileRecord r) {
 *         System.out.println(r.summary());
 *       }
 *     })
 *     ...
 * }</pre>
 *
 * @since 0.1.0
 */
public interface ReconcileListener {

  /**
   * A worker is about to reconcile {@code key}.
   *
   * @param key the key
   * @param worker the worker thread's name
   */
  default void onReconcileStart(ObjectKey key, String worker) {}

  /**
   * A reconcile ended and was recorded.
   *
   * @param record the record, as it appears in the reconcile log
   */
  default void onReconcileEnd(ReconcileRecord record) {}
}
