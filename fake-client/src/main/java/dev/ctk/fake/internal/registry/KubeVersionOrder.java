package dev.ctk.fake.internal.registry;

import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes' version priority: GA before beta before alpha, higher numbers first within each
 * ({@code v2, v1, v1beta2, v1beta1, v1alpha1}), then non-conforming names alphabetically.
 */
public final class KubeVersionOrder implements Comparator<String> {

  /** The single instance. */
  public static final KubeVersionOrder INSTANCE = new KubeVersionOrder();

  private static final Pattern KUBE_VERSION = Pattern.compile("v(\\d+)(?:(alpha|beta)(\\d+))?");

  private KubeVersionOrder() {}

  @Override
  public int compare(String a, String b) {
    Matcher ma = KUBE_VERSION.matcher(a);
    Matcher mb = KUBE_VERSION.matcher(b);
    boolean ka = ma.matches();
    boolean kb = mb.matches();
    if (!ka || !kb) {
      return ka == kb ? a.compareTo(b) : (ka ? -1 : 1);
    }
    int stability = Integer.compare(rank(mb.group(2)), rank(ma.group(2)));
    if (stability != 0) {
      return stability;
    }
    int major = Integer.compare(Integer.parseInt(mb.group(1)), Integer.parseInt(ma.group(1)));
    if (major != 0 || ma.group(3) == null) {
      return major;
    }
    return Integer.compare(Integer.parseInt(mb.group(3)), Integer.parseInt(ma.group(3)));
  }

  private static int rank(String stage) {
    if (stage == null) {
      return 2;
    }
    return "beta".equals(stage) ? 1 : 0;
  }
}
