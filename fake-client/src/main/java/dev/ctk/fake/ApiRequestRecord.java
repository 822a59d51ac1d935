package dev.ctk.fake;

import java.time.Instant;
import java.util.Set;

/**
 * One entry of a fake cluster's {@link RequestJournal}: an API request the server answered (or an event a test
 * injected through {@link EventInjector}), with what the server made of it.
 *
 * <pre>{@code
 * ApiRequestRecord r = cluster.requests().entries().get(0);
 * r.summary();   // "#12 patch configmaps default/web/status (apply, fieldManager=nginx) -> 200 changed"
 * ApiRequestRecord bump = cluster.requests().entries(RequestPattern.update("Deployment")).get(0);
 * bump.summary();   // "#14 update deployments default/web (resourceVersion=9) -> 200 changed, generation 2"
 * bump.generation(); // 2
 * }</pre>
 *
 * @param sequence position in the journal, from 1, in the order the server received the requests
 * @param time when the server received it (real wall-clock time, whatever clock the cluster stamps objects with)
 * @param verb the Kubernetes verb: {@code get}, {@code list}, {@code watch}, {@code create}, {@code update},
 *     {@code patch}, {@code delete}, {@code deletecollection}; for discovery and other non-resource paths
 *     {@code get}; for injected events the {@link EventInjector} method ({@code add}, {@code update},
 *     {@code delete}, {@code emitAdded}, {@code emitModified}, {@code emitDeleted})
 * @param kind the kind (e.g. {@code ConfigMap}), or {@code null} for non-resource paths
 * @param resource the plural resource (e.g. {@code configmaps}), or the path for non-resource requests
 * @param namespace the namespace, or {@code null}
 * @param name the object name, or {@code null} (lists, collection writes, create without a name in the path)
 * @param subresource {@code status}, {@code scale}, ..., or {@code null}
 * @param patchType for patches {@code json}, {@code merge}, {@code strategic-merge} or {@code apply}; else
 *     {@code null}
 * @param fieldManager the {@code fieldManager} query parameter, or {@code null}
 * @param labelSelector the {@code labelSelector} query parameter of a list, watch or deletecollection, or
 *     {@code null}
 * @param fieldSelector the {@code fieldSelector} query parameter of a list, watch or deletecollection, or
 *     {@code null}
 * @param bodyResourceVersion {@code metadata.resourceVersion} of the request body for update and patch (for a JSON
 *     patch, the value of a {@code test} or {@code replace} operation on {@code /metadata/resourceVersion}), or
 *     {@code null} when the body has none (an unconditional write), cannot be decoded, or the verb has no body
 * @param client who sent it: the {@code User-Agent} header, or {@value #INJECTOR} for injected events
 * @param code the HTTP status code of the answer (101 for a websocket watch, 200 for an HTTP-streaming watch once
 *     open, 0 for a dropped connection); for injected events 201 (add) or 200, or the code of the error that
 *     failed it
 * @param changed whether the request committed a change to the store (a no-op update or apply is {@code false})
 * @param fault the description of the fault a rule injected instead of (or before) the normal answer, or
 *     {@code null}
 * @param generation {@code metadata.generation} of the object as the server stored it once a create, update or
 *     patch succeeded (also of the parent object after a write to its {@code status} or {@code scale}
 *     subresource, and of an object a delete left in place, e.g. waiting for finalizers), so that a run of writes
 *     shows whether they bumped it; for injected events, of the object as stored after the call. {@code null} for
 *     reads, watches, failed or refused requests, deletes that removed the object, collection deletes, dry runs
 *     that created nothing, and kinds that keep no generation (ConfigMap, Secret, Pod, Service, ...)
 * @since 0.1.0
 */
public record ApiRequestRecord(long sequence, Instant time, String verb, String kind, String resource,
    String namespace, String name, String subresource, String patchType, String fieldManager, String labelSelector,
    String fieldSelector, String bodyResourceVersion, String client, int code, boolean changed, String fault,
    Long generation) {

  /** The {@link #client()} of events injected through {@link EventInjector}. */
  public static final String INJECTOR = "EventInjector";

  private static final Set<String> WRITE_VERBS = Set.of("create", "update", "patch", "delete", "deletecollection");

  /**
   * Whether this is an event a test injected (not an API request).
   *
   * @return {@code true} for {@link EventInjector} calls
   */
  public boolean injected() {
    return INJECTOR.equals(client);
  }

  /**
   * Whether the verb writes: create, update, patch, delete or deletecollection (whatever the answer).
   *
   * @return {@code true} for write verbs of API requests
   */
  public boolean isWrite() {
    return !injected() && WRITE_VERBS.contains(verb);
  }

  /**
   * Whether the server answered with a 2xx code.
   *
   * @return {@code true} for 200-299 (and 101 for a websocket watch)
   */
  public boolean succeeded() {
    return code == 101 || (code >= 200 && code < 300);
  }

  /**
   * {@code namespace/name}, {@code name} for cluster-scoped objects, or {@code null} without a name.
   *
   * @return the object key
   */
  public String objectKey() {
    if (name == null) {
      return null;
    }
    return namespace == null ? name : namespace + "/" + name;
  }

  /**
   * One line, e.g. {@code "#12 patch configmaps default/web/status (apply, fieldManager=nginx) -> 200 changed"}. A
   * write that changed an object of a kind with a {@link #generation()} ends with it, e.g. {@code "#14 update
   * deployments default/web (resourceVersion=9) -> 200 changed, generation 2"}.
   *
   * @return the summary
   */
  public String summary() {
    StringBuilder out = new StringBuilder(describeRequest());
    if (injected()) {
      out.append(" [injected]");
    } else {
      out.append(" -> ").append(code == 0 ? "connection dropped" : Integer.toString(code));
      if (isWrite() && succeeded()) {
        out.append(changed ? " changed" : " no change");
        if (changed && generation != null) {
          out.append(", generation ").append(generation);
        }
      }
    }
    if (fault != null) {
      out.append(" [fault: ").append(fault).append(']');
    }
    return out.toString();
  }

  /**
   * The request part of {@link #summary()}, without the answer, e.g.
   * {@code "#12 patch configmaps default/web/status (apply, fieldManager=nginx)"}.
   *
   * @return the request as one line
   */
  public String describeRequest() {
    StringBuilder out = new StringBuilder("#").append(sequence).append(' ').append(verb).append(' ')
        .append(resource == null ? "?" : resource);
    String key = objectKey();
    if (key != null) {
      out.append(' ').append(key);
    } else if (namespace != null) {
      out.append(" in ").append(namespace);
    }
    if (subresource != null) {
      out.append('/').append(subresource);
    }
    StringBuilder details = new StringBuilder();
    append(details, patchType);
    append(details, fieldManager == null ? null : "fieldManager=" + fieldManager);
    append(details, labelSelector == null ? null : "labelSelector=" + labelSelector);
    append(details, fieldSelector == null ? null : "fieldSelector=" + fieldSelector);
    if (("update".equals(verb) || "patch".equals(verb)) && !"apply".equals(patchType) && !injected()) {
      append(details, bodyResourceVersion == null ? "no resourceVersion" : "resourceVersion=" + bodyResourceVersion);
    }
    if (details.length() > 0) {
      out.append(" (").append(details).append(')');
    }
    return out.toString();
  }

  private static void append(StringBuilder details, String part) {
    if (part == null) {
      return;
    }
    if (details.length() > 0) {
      details.append(", ");
    }
    details.append(part);
  }

  @Override
  public String toString() {
    return summary();
  }
}
