"""Players' mail beside the webhook deliveries (contract §21): counts, failures first with their last error."""

from __future__ import annotations

import streamlit as st

from console.client import ConsoleClient
from console.player_links import mail_counts, mail_table
from console.ui import load, plain


def mail_section(api: ConsoleClient) -> None:
    """The players' mail (call-ups, times moved): a warning while any is failing, the list in an expander."""
    messages = load(api.mail)
    if messages is None:
        return
    counts = mail_counts(messages)
    if counts["failing"]:
        st.error(f"Players' mail: {counts['failing']} failing (retried automatically). Last error: "
                 f"{plain(next(m['lastError'] for m in messages if m['status'] == 'failing'))}", icon=":material/mail:")
    with st.expander(f"Players' mail: {counts['sent']} sent · {counts['pending']} pending · "
                     f"{counts['failing']} failing", expanded=bool(counts["failing"])):
        if messages:
            st.dataframe(mail_table(messages), hide_index=True, width="stretch")
        else:
            st.caption("No mail yet. With COURTSIDE_SMTP_URL and COURTSIDE_MAIL_FROM set, a player with an email "
                       "gets one when called.")
