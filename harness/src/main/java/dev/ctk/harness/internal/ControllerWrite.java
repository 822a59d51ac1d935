package dev.ctk.harness.internal;

/**
 * One write a controller of the test sent from inside a reconcile, as a {@link dev.ctk.harness.internal.perturb.PerturbationTracker} numbers them: a
 * create, update, patch, delete or deletecollection request that reached the fake API server from a worker thread
 * while it ran a reconcile of a controller started through the test's {@link dev.ctk.harness.ControllerHarness}. Writes of the test
 * body, of informers and of other clients are not controller writes.
 *
 * <pre>{@code
 * ControllerWrite w = tracker.controllerWrites().get(1);
 * w.describe();   // "write #2: create Service default/web"
 * }</pre>
 *
 * @param number its number, from 1, over every controller of the test, in the order the server received them
 * @param controller the name of the controller whose reconcile sent it
 * @param instance which instance of that controller sent it: 1, or 2 and up after a restart
 * @param verb {@code create}, {@code update}, {@code patch}, {@code delete} or {@code deletecollection}
 * @param kind the kind, e.g. {@code Service}, or the plural resource when the fake does not know the kind
 * @param namespace the namespace, or {@code null} for cluster-scoped objects
 * @param name the object's name, or {@code null} when the request path has none (a create, whose name is in its
 *     body, or a deletecollection)
 * @param journalSequence the request's sequence in the cluster's {@code RequestJournal}
 */
public record ControllerWrite(int number, String controller, int instance, String verb, String kind, String namespace,
    String name, long journalSequence) {

  /**
   * One line for reports: {@code "write #2: create Service default/web"}; without a name in the request path
   * {@code "write #2: create Service in default"}.
   *
   * @return the description
   */
  public String describe() {
    return "write #" + number + ": " + request();
  }

  /** The request without the number: {@code "create Service default/web"}. */
  public String request() {
    StringBuilder out = new StringBuilder(verb).append(' ').append(kind);
    if (name != null) {
      out.append(' ').append(namespace == null ? name : namespace + "/" + name);
    } else if (namespace != null) {
      out.append(" in ").append(namespace);
    }
    return out.toString();
  }
}
