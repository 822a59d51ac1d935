package dev.ctk.fake.internal.common;

import java.util.Locale;

/**
 * A boolean query parameter read as kube-apiserver reads one ({@code Convert_Slice_string_To_bool} of
 * {@code k8s.io/apimachinery}): absent is false; {@code 0} and {@code false} in any case are false; anything else,
 * an empty value, {@code no} and {@code f} included, is true.
 *
 * <pre>{@code
 * QueryBoolean.parse("False");   // false
 * QueryBoolean.parse("no");      // true, as in kube
 * }</pre>
 */
public final class QueryBoolean {

  private QueryBoolean() {
  }

  /**
   * The parameter's value.
   *
   * @param value the first value of the parameter, or {@code null} when the query does not have it
   * @return what kube-apiserver makes of it
   */
  public static boolean parse(String value) {
    return value != null && !value.equals("0") && !value.toLowerCase(Locale.ROOT).equals("false");
  }
}
