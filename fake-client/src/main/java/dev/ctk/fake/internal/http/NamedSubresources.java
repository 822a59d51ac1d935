package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.registry.NamedSubresource;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.version.KubeMinor;
import java.util.List;

/**
 * The subresources a server of one minor serves beyond {@code status} and {@code scale}, read from each kind's row
 * in {@code BuiltinKinds} ({@link ResourceType#namedSubresources()}): the Pod's {@code attach}, {@code binding},
 * {@code ephemeralcontainers}, {@code eviction}, {@code exec}, {@code log}, {@code portforward} and {@code proxy},
 * {@code nodes/proxy}, {@code services/proxy}, {@code namespaces/finalize} and {@code serviceaccounts/token}; from
 * 1.33 also {@code pods/resize} (in-place resize). {@link SubresourceHandler} serves them.
 */
final class NamedSubresources {

  private NamedSubresources() {}

  /** The subresources of a kind that a server of that minor serves, in name order (none for custom resources). */
  static List<NamedSubresource> of(ResourceType type, KubeMinor minor) {
    return type.namedSubresources().stream().filter(s -> s.servedIn().test(minor)).toList();
  }

  /** Whether a kind serves this subresource (beyond status and scale) in that minor. */
  static boolean serves(ResourceType type, String subresource, KubeMinor minor) {
    return of(type, minor).stream().anyMatch(e -> e.name().equals(subresource));
  }
}
