package dev.ctk.examples.network;

import java.util.Objects;

/**
 * Desired state of a {@link Network}: an address range and its gateway.
 *
 * @since 0.1.0
 */
public class NetworkSpec {
  private String cidr;
  private String gateway;

  /** For Jackson. */
  public NetworkSpec() {
  }

  /**
   * @param cidr the address range, e.g. {@code 192.168.0.0/16}
   * @param gateway the gateway address, e.g. {@code 192.168.0.1}
   */
  public NetworkSpec(String cidr, String gateway) {
    this.cidr = cidr;
    this.gateway = gateway;
  }

  /** @return the address range */
  public String getCidr() {
    return cidr;
  }

  /** @param cidr the address range */
  public void setCidr(String cidr) {
    this.cidr = cidr;
  }

  /** @return the gateway address */
  public String getGateway() {
    return gateway;
  }

  /** @param gateway the gateway address */
  public void setGateway(String gateway) {
    this.gateway = gateway;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NetworkSpec other && Objects.equals(cidr, other.cidr)
        && Objects.equals(gateway, other.gateway);
  }

  @Override
  public int hashCode() {
    return Objects.hash(cidr, gateway);
  }

  @Override
  public String toString() {
    return "NetworkSpec{cidr=" + cidr + ", gateway=" + gateway + "}";
  }
}
