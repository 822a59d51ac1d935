package dev.ctk.fake.internal.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.status.GoText;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What kube's Service registry allocates: a cluster IP from the service CIDR {@value #SERVICE_CIDR} (the lowest
 * free address from {@code 10.96.0.1} upwards, where kube picks at random; {@code 10.96.0.1} is kube's
 * {@code kubernetes} Service, which the fake does not create but does not hand out either), {@code clusterIPs},
 * {@code ipFamilies [IPv4]} and {@code ipFamilyPolicy SingleStack} (RequireDualStack and
 * {@code [IPv4, IPv6]} for a headless Service without selector, as kube does), and node ports from 30000-32767
 * (lowest free first) for NodePort and LoadBalancer. On update, values the body leaves out are kept from the stored Service, as kube does.
 *
 * <p>Free means not used by any stored Service ({@link ServiceAddresses}, kept from the store's commits); a dry run
 * allocates without reserving.
 */
final class ServiceAllocation {

  static final String SERVICE_CIDR = "10.96.0.0/12";
  private static final long BASE = (10L << 24) | (96L << 16);
  private static final long SIZE = 1L << 20;
  static final int NODE_PORT_MIN = 30000;
  static final int NODE_PORT_MAX = 32767;

  private ServiceAllocation() {}

  /** Allocates on create; {@code existing} holds what the stored Services (all namespaces) use. */
  static FieldErrors create(ObjectNode service, ServiceAddresses existing) {
    FieldErrors errors = new FieldErrors();
    ObjectNode spec = Json.object(service, "spec");
    String type = spec.path("type").asText();
    if (type.equals("ExternalName")) {
      return errors;
    }
    String clusterIp = spec.path("clusterIP").asText("");
    if (clusterIp.isEmpty() && spec.path("clusterIPs").size() > 0) {
      clusterIp = spec.path("clusterIPs").get(0).asText("");
    }
    if (clusterIp.isEmpty()) {
      clusterIp = freeIp(existing);
    } else if (!clusterIp.equals("None")) {
      Long address = parse(clusterIp);
      if (address == null) {
        errors.invalid("spec.clusterIPs[0]", clusterIp,
            "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)");
        return errors;
      }
      String rendered = GoText.stringSlice(List.of(clusterIp));
      if (address < BASE || address >= BASE + SIZE) {
        errors.invalidRendered("spec.clusterIPs", rendered, "failed to allocate IP " + clusterIp
            + ": the provided IP (" + clusterIp + ") is not in the valid range. The range of valid IPs is "
            + SERVICE_CIDR);
        return errors;
      }
      if (existing.ipInUse(clusterIp)) {
        errors.invalidRendered("spec.clusterIPs", rendered, "failed to allocate IP " + clusterIp
            + ": provided IP is already allocated");
        return errors;
      }
    }
    spec.put("clusterIP", clusterIp);
    spec.putArray("clusterIPs").add(clusterIp);
    boolean headlessWithoutSelector = clusterIp.equals("None") && spec.path("selector").isEmpty();
    Json.putIfAbsent(spec, "ipFamilyPolicy", headlessWithoutSelector ? "RequireDualStack" : "SingleStack");
    if (spec.path("ipFamilies").isEmpty()) {
      spec.putArray("ipFamilies").add("IPv4");
    }
    if (headlessWithoutSelector && !spec.path("ipFamilyPolicy").asText().equals("SingleStack")
        && spec.path("ipFamilies").size() == 1) {
      // as kube: a headless Service without selector may list both families even on a single-stack cluster
      ((com.fasterxml.jackson.databind.node.ArrayNode) spec.get("ipFamilies"))
          .add(spec.path("ipFamilies").get(0).asText().equals("IPv4") ? "IPv6" : "IPv4");
    }
    nodePorts(spec, existing, null);
    return errors;
  }

  /**
   * On update: keeps allocated values the body leaves out and pre-validates the address fields
   * ({@link ServiceIpFamilies}: their errors answer 422 at once, as kube's), allocates what a type change from
   * ExternalName newly needs, and drops what a type change leaves unneeded if the body kept it unchanged (kube's
   * {@code dropTypeDependentFields}: the cluster IPs, families and policy on a change to ExternalName, node ports on
   * a change to a type without them).
   *
   * @throws dev.ctk.fake.internal.status.ApiError 422 Invalid from the pre-validation
   */
  static void update(ObjectNode current, ObjectNode next, ServiceAddresses existing) {
    JsonNode old = current.path("spec");
    ObjectNode spec = Json.object(next, "spec");
    ServiceIpFamilies.update(current, next)
        .throwIfAny("", "Service", next.path("metadata").path("name").asText());
    dropTypeDependentFields(old, spec);
    if (ServiceIpFamilies.externalName(spec)) {
      return;
    }
    if (ServiceIpFamilies.externalName(old)) {
      create(next, existing);
      return;
    }
    nodePorts(spec, existing, old);
  }

  private static void dropTypeDependentFields(JsonNode old, ObjectNode spec) {
    if (!ServiceIpFamilies.externalName(old) && ServiceIpFamilies.externalName(spec)) {
      if (ServiceIpFamilies.same(old, spec, "clusterIPs") && ServiceIpFamilies.same(old, spec, "clusterIP")) {
        spec.remove("clusterIP");
        spec.remove("clusterIPs");
      }
      if (ServiceIpFamilies.same(old, spec, "ipFamilies")) {
        spec.remove("ipFamilies");
      }
      if (ServiceIpFamilies.same(old, spec, "ipFamilyPolicy")) {
        spec.remove("ipFamilyPolicy");
      }
      if (ServiceIpFamilies.same(old, spec, "internalTrafficPolicy")) {
        spec.remove("internalTrafficPolicy");
      }
    }
    if (needsNodePorts(old) && !needsNodePorts(spec) && sameNodePorts(old, spec)) {
      for (JsonNode port : spec.path("ports")) {
        if (port instanceof ObjectNode p) {
          p.remove("nodePort");
        }
      }
    }
    if (exposed(old) && !exposed(spec) && ServiceIpFamilies.same(old, spec, "externalTrafficPolicy")) {
      spec.remove("externalTrafficPolicy");
    }
  }

  private static boolean exposed(JsonNode spec) {
    String type = spec.path("type").asText();
    return type.equals("NodePort") || type.equals("LoadBalancer");
  }

  private static boolean needsNodePorts(JsonNode spec) {
    String type = spec.path("type").asText();
    return type.equals("NodePort")
        || type.equals("LoadBalancer") && spec.path("allocateLoadBalancerNodePorts").asBoolean(true);
  }

  /** kube's {@code sameNodePorts}: the update adds no node port the stored Service does not hold. */
  private static boolean sameNodePorts(JsonNode old, JsonNode spec) {
    return nodePortSet(old).containsAll(nodePortSet(spec));
  }

  private static Set<Integer> nodePortSet(JsonNode spec) {
    Set<Integer> ports = new HashSet<>();
    for (JsonNode port : spec.path("ports")) {
      if (port.path("nodePort").asInt(0) != 0) {
        ports.add(port.path("nodePort").asInt());
      }
    }
    return ports;
  }

  private static void nodePorts(ObjectNode spec, ServiceAddresses existing, JsonNode old) {
    String type = spec.path("type").asText();
    boolean needsNodePorts = type.equals("NodePort")
        || (type.equals("LoadBalancer") && spec.path("allocateLoadBalancerNodePorts").asBoolean(true));
    if (!needsNodePorts) {
      return;
    }
    // taken by this Service: the ports it names, then the ones allocated below
    Set<Integer> taken = new HashSet<>();
    for (JsonNode port : spec.path("ports")) {
      taken.add(port.path("nodePort").asInt(0));
    }
    for (JsonNode node : spec.path("ports")) {
      if (!(node instanceof ObjectNode port) || port.path("nodePort").asInt(0) != 0) {
        continue;
      }
      int kept = old == null ? 0 : oldNodePort(old, port);
      if (kept != 0) {
        port.put("nodePort", kept);
        continue;
      }
      for (int candidate = existing.firstFreeNodePort(NODE_PORT_MIN); candidate >= 0;
          candidate = existing.firstFreeNodePort(candidate + 1)) {
        if (taken.add(candidate)) {
          port.put("nodePort", candidate);
          break;
        }
      }
    }
  }

  private static int oldNodePort(JsonNode old, JsonNode port) {
    for (JsonNode candidate : old.path("ports")) {
      if (candidate.path("port").asInt() == port.path("port").asInt()
          && candidate.path("protocol").asText("TCP").equals(port.path("protocol").asText("TCP"))) {
        return candidate.path("nodePort").asInt(0);
      }
    }
    return 0;
  }

  /** The lowest address from {@code 10.96.0.2} up (the broadcast address excluded) no stored Service holds. */
  private static String freeIp(ServiceAddresses used) {
    long offset = used.firstFreeIpOffset(2);
    if (offset < SIZE - 1) {
      return format(BASE + offset);
    }
    throw ApiError.internal("failed to allocate a serviceIP: range is full");
  }

  /**
   * The offset of an address in the service CIDR from its base, when {@code ip} is written as {@link #format} writes
   * it; else -1 (outside the CIDR, not IPv4, or written otherwise, e.g. with leading zeros).
   */
  static long offsetOf(String ip) {
    Long address = parse(ip);
    if (address == null || address < BASE || address >= BASE + SIZE || !format(address).equals(ip)) {
      return -1;
    }
    return address - BASE;
  }

  static String format(long address) {
    return ((address >> 24) & 255) + "." + ((address >> 16) & 255) + "." + ((address >> 8) & 255) + "."
        + (address & 255);
  }

  private static Long parse(String ip) {
    String[] parts = ip.split("\\.", -1);
    if (parts.length != 4) {
      return null;
    }
    long value = 0;
    for (String part : parts) {
      try {
        int octet = Integer.parseInt(part);
        if (octet < 0 || octet > 255) {
          return null;
        }
        value = (value << 8) | octet;
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return value;
  }
}
