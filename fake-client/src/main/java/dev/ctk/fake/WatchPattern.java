package dev.ctk.fake;

import dev.ctk.fake.internal.select.FieldSelector;
import dev.ctk.fake.internal.select.LabelSelector;
import dev.ctk.fake.internal.select.SelectorException;
import dev.ctk.fake.internal.watch.WatchIdentity;
import java.util.Objects;

/**
 * Which watches a watch fault ({@link WatchFaults}) applies to: by kind, namespace and selectors, as the client
 * asked for them when it opened the watch. Immutable; each method returns a narrower pattern, and every part left
 * out matches anything.
 *
 * <pre>{@code
 * WatchPattern configMaps = WatchPattern.kind("ConfigMap");                         // any namespace, any selector
 * WatchPattern webInformer = WatchPattern.kind("pods").inNamespace("shop").labelSelector("app=web");
 * WatchPattern clusterWide = WatchPattern.kind("Deployment").inAllNamespaces();
 * WatchPattern everything = WatchPattern.any();
 * }</pre>
 *
 * <p>Matching: the kind matches the watch's kind or plural resource, ignoring case ({@code "ConfigMap"},
 * {@code "configmaps"}); {@link #inNamespace} matches watches opened in that namespace only (a watch across all
 * namespaces is not "in" any of them) and {@link #inAllNamespaces()} matches those across all namespaces (and
 * watches of cluster-scoped kinds); a selector matches when it selects the same as the watch's, compared in kube's
 * canonical form ({@code "tier=web,app=shop"} equals {@code "app=shop,tier=web"}), and {@code ""} matches watches
 * without that selector. A pattern is not a query over objects: a watch across all namespaces with no selector is
 * not matched by {@code inNamespace("default")} even though it sees the objects of {@code default}.
 *
 * @since 0.1.0
 */
public final class WatchPattern {

  private static final String ALL_NAMESPACES = "\0all";

  private final String kind;
  private final String namespace;
  private final String labelSelector;
  private final String fieldSelector;

  private WatchPattern(String kind, String namespace, String labelSelector, String fieldSelector) {
    this.kind = kind;
    this.namespace = namespace;
    this.labelSelector = labelSelector;
    this.fieldSelector = fieldSelector;
  }

  /**
   * Every watch.
   *
   * @return a pattern matching any watch
   */
  public static WatchPattern any() {
    return new WatchPattern(null, null, null, null);
  }

  /**
   * Watches of one kind.
   *
   * @param kind a kind ({@code ConfigMap}) or plural resource ({@code configmaps}), any case
   * @return the pattern
   * @throws IllegalArgumentException when {@code kind} is blank
   */
  public static WatchPattern kind(String kind) {
    return any().withKind(kind);
  }

  /**
   * Narrows to a kind.
   *
   * @param kind a kind ({@code ConfigMap}) or plural resource ({@code configmaps}), any case
   * @return the narrower pattern
   * @throws IllegalArgumentException when {@code kind} is blank
   */
  public WatchPattern withKind(String kind) {
    return new WatchPattern(required(kind, "kind", "a kind such as \"ConfigMap\" or a resource such as "
        + "\"configmaps\""), namespace, labelSelector, fieldSelector);
  }

  /**
   * Narrows to watches opened in one namespace.
   *
   * @param namespace the namespace
   * @return the narrower pattern
   * @throws IllegalArgumentException when {@code namespace} is blank
   */
  public WatchPattern inNamespace(String namespace) {
    return new WatchPattern(kind, required(namespace, "namespace", "a namespace such as \"default\", or "
        + "inAllNamespaces() for watches across all namespaces"), labelSelector, fieldSelector);
  }

  /**
   * Narrows to watches across all namespaces (and watches of cluster-scoped kinds).
   *
   * @return the narrower pattern
   */
  public WatchPattern inAllNamespaces() {
    return new WatchPattern(kind, ALL_NAMESPACES, labelSelector, fieldSelector);
  }

  /**
   * Narrows to watches whose label selector selects the same as {@code selector}.
   *
   * @param selector a label selector as kube parses it ({@code app=web,tier in (cache,web)}), or {@code ""} for
   *     watches without a label selector
   * @return the narrower pattern
   * @throws IllegalArgumentException when the selector does not parse (with kube's parse error)
   */
  public WatchPattern labelSelector(String selector) {
    Objects.requireNonNull(selector, "WatchPattern.labelSelector: selector is null; use \"\" for watches without "
        + "a label selector");
    try {
      return new WatchPattern(kind, namespace, LabelSelector.parse(selector).toString(), fieldSelector);
    } catch (SelectorException e) {
      throw new IllegalArgumentException("WatchPattern.labelSelector: \"" + selector + "\" is not a label "
          + "selector: " + e.getMessage() + ". Write it as a watch's labelSelector parameter, e.g. \"app=web\".", e);
    }
  }

  /**
   * Narrows to watches whose field selector selects the same as {@code selector}.
   *
   * @param selector a field selector ({@code metadata.name=web}), or {@code ""} for watches without a field
   *     selector; it is compared in kube's canonical form for the watch's kind (a field the kind does not support
   *     matches no watch)
   * @return the narrower pattern
   */
  public WatchPattern fieldSelector(String selector) {
    Objects.requireNonNull(selector, "WatchPattern.fieldSelector: selector is null; use \"\" for watches without "
        + "a field selector");
    return new WatchPattern(kind, namespace, labelSelector, selector);
  }

  /** Whether a watch matches. Not part of the API: the identity type is internal. */
  boolean selects(WatchIdentity watch) {
    if (kind != null && !kind.equalsIgnoreCase(watch.plural())
        && (watch.kind() == null || !kind.equalsIgnoreCase(watch.kind()))) {
      return false;
    }
    if (ALL_NAMESPACES.equals(namespace) ? watch.namespace() != null
        : namespace != null && !namespace.equals(watch.namespace())) {
      return false;
    }
    if (labelSelector != null && !labelSelector.equals(watch.labelSelector())) {
      return false;
    }
    return fieldSelector == null || canonicalFields(watch).equals(watch.fieldSelector());
  }

  private String canonicalFields(WatchIdentity watch) {
    if (fieldSelector.isEmpty()) {
      return "";
    }
    try {
      return watch.kind() == null ? fieldSelector
          : FieldSelector.parse(fieldSelector, watch.fieldLabels()).toString();
    } catch (SelectorException e) {
      return "\0unsupported";
    }
  }

  /**
   * How the pattern reads in messages, e.g. {@code ConfigMap in default labelSelector=app=web}.
   *
   * @return the description
   */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder(kind == null ? "any kind" : kind);
    if (ALL_NAMESPACES.equals(namespace)) {
      out.append(" in all namespaces");
    } else if (namespace != null) {
      out.append(" in ").append(namespace);
    }
    if (labelSelector != null) {
      out.append(labelSelector.isEmpty() ? " without labelSelector" : " labelSelector=" + labelSelector);
    }
    if (fieldSelector != null) {
      out.append(fieldSelector.isEmpty() ? " without fieldSelector" : " fieldSelector=" + fieldSelector);
    }
    return out.toString();
  }

  private static String required(String value, String what, String example) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("WatchPattern: " + what + " must not be "
          + (value == null ? "null" : "blank") + ". Use " + example + ".");
    }
    return value;
  }
}
