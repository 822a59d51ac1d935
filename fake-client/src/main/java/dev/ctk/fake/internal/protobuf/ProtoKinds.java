package dev.ctk.fake.internal.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.kubernetes.client.proto.Meta;
import java.lang.reflect.InvocationTargetException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Finds the generated class of {@code io.kubernetes:client-java-proto} that holds a kind, from the apiVersion and kind
 * of a protobuf envelope. Each group version is one outer class named after it ({@code v1} is {@code V1},
 * {@code apps/v1} is {@code V1Apps}, {@code rbac.authorization.k8s.io/v1} is {@code V1Rbac},
 * {@code autoscaling/v2beta2} is {@code V2beta2Autoscaling}); the kind is a message nested in it
 * ({@code V1Apps.Deployment}). The outer class found must describe the file of that group version
 * ({@code k8s.io.api.apps.v1}), so a custom group that shares a first label with a built-in one never matches.
 */
final class ProtoKinds {

  private static final String JAVA_PACKAGE = "io.kubernetes.client.proto.";

  /** Kubernetes' own groups without a dot; every other one of its groups ends in {@code .k8s.io}. */
  private static final Set<String> SHORT_GROUPS = Set.of("apps", "batch", "policy", "autoscaling", "extensions");

  /** Kubernetes groups whose protobuf package is not named after their first label. */
  private static final Map<String, String> PACKAGES = Map.of("rbac.authorization.k8s.io", "rbac",
      "flowcontrol.apiserver.k8s.io", "flowcontrol", "internal.apiserver.k8s.io", "apiserverinternal");

  /** A kind, or a capitalized version: what may go into a generated class name. */
  private static final Pattern CLASS_NAME_PART = Pattern.compile("[A-Z][A-Za-z0-9]*");

  private ProtoKinds() {}

  /**
   * Whether a group is one of Kubernetes' own: core ({@code ""}), a short group such as {@code apps}, or
   * {@code <name>.k8s.io}; custom resources live in every other group.
   */
  static boolean builtinGroup(String group) {
    return protoPackage(group) != null;
  }

  /**
   * The empty message of a kind, to parse its bytes with; empty when client-java-proto has no message for it (a group
   * version it does not cover, a kind that is not an object with {@code metadata}). {@code DeleteOptions} is found in
   * every group version, as kube registers it in each.
   *
   * @param group the API group, {@code ""} for core
   * @param version the API version, e.g. {@code v1}
   * @param kind the kind, e.g. {@code Deployment}
   */
  static Optional<Message> emptyMessage(String group, String version, String kind) {
    if (kind.equals("DeleteOptions")) {
      return Optional.of(Meta.DeleteOptions.getDefaultInstance());
    }
    String segment = protoPackage(group);
    if (segment == null || !CLASS_NAME_PART.matcher(kind).matches()
        || !CLASS_NAME_PART.matcher(capitalized(version)).matches()) {
      return Optional.empty();
    }
    String outer = capitalized(version) + (group.isEmpty() ? "" : capitalized(segment));
    Optional<Message> message = nested(outer, kind);
    return message.filter(m -> isObjectOf(m.getDescriptorForType(), segment, version));
  }

  /** The protobuf package segment of a Kubernetes group ({@code core}, {@code apps}, {@code rbac}), else null. */
  private static String protoPackage(String group) {
    if (group.isEmpty()) {
      return "core";
    }
    if (SHORT_GROUPS.contains(group)) {
      return group;
    }
    String mapped = PACKAGES.get(group);
    if (mapped != null) {
      return mapped;
    }
    if (group.endsWith(".k8s.io")) {
      String name = group.substring(0, group.length() - ".k8s.io".length());
      return name.isEmpty() || name.contains(".") ? null : name;
    }
    return null;
  }

  private static Optional<Message> nested(String outer, String kind) {
    try {
      Class<?> type = Class.forName(JAVA_PACKAGE + outer + "$" + kind, true, ProtoKinds.class.getClassLoader());
      if (!Message.class.isAssignableFrom(type)) {
        return Optional.empty();
      }
      return Optional.of((Message) type.getMethod("getDefaultInstance").invoke(null));
    } catch (ClassNotFoundException | NoSuchMethodException e) {
      return Optional.empty();
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot read the generated protobuf class " + outer + "." + kind + " of "
          + "io.kubernetes:client-java-proto: " + e, e);
    }
  }

  /** A top-level message of the group version's file with object metadata: a kind, not a part of one. */
  private static boolean isObjectOf(Descriptor type, String segment, String version) {
    if (type.getContainingType() != null || !type.getFile().getPackage().endsWith("." + segment + "." + version)) {
      return false;
    }
    FieldDescriptor metadata = type.findFieldByName("metadata");
    return metadata != null && metadata.getJavaType() == FieldDescriptor.JavaType.MESSAGE;
  }

  private static String capitalized(String text) {
    return text.isEmpty() ? text : text.substring(0, 1).toUpperCase(Locale.ROOT) + text.substring(1);
  }
}
