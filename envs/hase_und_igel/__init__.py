"""Hase und Igel: rule data (``data``), forward model (``rules``), AEC adapter (``env``), rendering
(``render``). Entry points live in :mod:`meadowzoo.envs.hase_und_igel_v0`."""
