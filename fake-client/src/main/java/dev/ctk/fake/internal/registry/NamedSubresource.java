package dev.ctk.fake.internal.registry;

import dev.ctk.fake.internal.version.KubeMinor;
import java.util.List;
import java.util.function.Predicate;

/**
 * A subresource kube serves for a built-in kind beyond {@code status} and {@code scale}, as its discovery lists it
 * (Pod {@code log}, {@code exec}, {@code eviction}, ...): one entry of its kind's row in {@link BuiltinKinds}.
 *
 * @param name the subresource, e.g. {@code log}
 * @param kind the kind its discovery entry names, e.g. {@code PodExecOptions}
 * @param group the group of that kind when it is another group's ({@code policy} for {@code Eviction}), else
 *     {@code ""}
 * @param version that group's version, or {@code ""}
 * @param verbs the verbs, in kube's (alphabetical) order
 * @param servedIn which minors serve it (Pod {@code resize} from 1.33)
 */
public record NamedSubresource(String name, String kind, String group, String version, List<String> verbs,
    Predicate<KubeMinor> servedIn) {

  /** The verbs of a connect subresource ({@code attach}, {@code exec}, {@code portforward}). */
  public static final List<String> CONNECT = List.of("create", "get");

  /** The verbs of a proxy subresource. */
  public static final List<String> PROXY = List.of("create", "delete", "get", "patch", "update");

  /**
   * A subresource every supported minor serves, whose discovery entry names a kind of the same group.
   *
   * @param name e.g. {@code log}
   * @param kind e.g. {@code Pod}
   * @param verbs e.g. {@code get}
   * @return the subresource
   */
  public static NamedSubresource of(String name, String kind, List<String> verbs) {
    return new NamedSubresource(name, kind, "", "", verbs, minor -> true);
  }

  /**
   * A copy whose discovery entry names a kind of another group.
   *
   * @param otherGroup e.g. {@code policy}
   * @param otherVersion e.g. {@code v1}
   * @return the copy
   */
  public NamedSubresource inGroup(String otherGroup, String otherVersion) {
    return new NamedSubresource(name, kind, otherGroup, otherVersion, verbs, servedIn);
  }

  /**
   * A copy served only by the minors {@code minors} accepts.
   *
   * @param minors e.g. {@code KubeMinor::servesPodResize}
   * @return the copy
   */
  public NamedSubresource servedIn(Predicate<KubeMinor> minors) {
    return new NamedSubresource(name, kind, group, version, verbs, minors);
  }
}
